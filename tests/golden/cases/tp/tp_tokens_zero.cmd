args: tp --model 70b --tokens 0
exit: 2
