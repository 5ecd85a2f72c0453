args: models
exit: 0
