args: validate measurements/out_of_bound.csv
exit: 3
