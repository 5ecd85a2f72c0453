args: tp --tokens 4096
exit: 2
