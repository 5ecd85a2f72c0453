args: links --json
exit: 0
