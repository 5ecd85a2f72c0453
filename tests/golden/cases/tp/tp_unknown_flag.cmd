args: tp --model 70b --tokenz 4096
exit: 2
