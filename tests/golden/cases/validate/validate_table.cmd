args: validate
exit: 0
