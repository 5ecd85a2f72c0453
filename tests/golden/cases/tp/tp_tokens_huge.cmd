args: tp --model 70b --tokens 1e30
exit: 2
