args: systems --json
exit: 0
