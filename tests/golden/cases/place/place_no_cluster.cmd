args: place --model 70b
exit: 2
