args: validate measurements/out_of_bound.csv --json
exit: 3
