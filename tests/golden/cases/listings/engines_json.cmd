args: engines --json
exit: 0
