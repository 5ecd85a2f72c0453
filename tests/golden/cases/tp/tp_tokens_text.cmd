args: tp --model 70b --tokens abc
exit: 2
