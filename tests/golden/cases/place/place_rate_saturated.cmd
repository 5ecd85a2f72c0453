args: place --model 70b --system aws-p5 --tp 8 --rate 40 --input 2048 --output 256 --arrivals constant --requests 500
exit: 0
