args: systems
exit: 0
