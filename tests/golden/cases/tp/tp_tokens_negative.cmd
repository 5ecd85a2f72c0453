args: tp --model 70b --tokens -1
exit: 2
