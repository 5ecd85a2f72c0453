args: help tq
exit: 2
