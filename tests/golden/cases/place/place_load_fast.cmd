args: place --model 70b --system aws-p5 --tp 8 --rate 5 --input 2048 --output 256 --fast
exit: 0
