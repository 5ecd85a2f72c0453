args: place --model 70b --system aws-p5 --tp 8 --batch 24 --rate 5 --input 2048 --output 256 --json
exit: 0
