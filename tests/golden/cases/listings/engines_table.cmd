args: engines
exit: 0
