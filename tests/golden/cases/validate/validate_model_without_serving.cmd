args: validate --model 70b
exit: 2
