args: validate measurements/latin1.csv --json
exit: 2
