args: config
exit: 0
