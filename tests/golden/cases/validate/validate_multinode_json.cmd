args: validate measurements/multinode.csv --json
exit: 0
