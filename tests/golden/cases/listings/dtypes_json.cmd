args: dtypes --json
exit: 0
