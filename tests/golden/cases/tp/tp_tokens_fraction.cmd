args: tp --model 70b --tokens 1.5
exit: 2
