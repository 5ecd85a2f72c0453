args: place --model 70b --system aws-p5 --tp 8 --rate 5 --fast --seed 2
exit: 2
