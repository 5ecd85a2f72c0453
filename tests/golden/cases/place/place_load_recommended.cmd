args: place --model 70b --system aws-p4d --rate 4 --input 213 --output 212
exit: 0
