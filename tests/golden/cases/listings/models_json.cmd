args: models --json
exit: 0
