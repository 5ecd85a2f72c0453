args: storage
exit: 0
