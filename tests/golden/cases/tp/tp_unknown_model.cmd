args: tp --model 70c --tokens 4096
exit: 2
