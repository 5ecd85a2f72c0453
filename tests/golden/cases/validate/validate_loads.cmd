args: validate --loads
exit: 0
