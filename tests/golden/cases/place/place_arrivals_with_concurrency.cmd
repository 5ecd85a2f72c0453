args: place --model 70b --system aws-p5 --tp 8 --concurrency 8 --arrivals constant
exit: 2
