args: validate measurements/multinode.csv
exit: 0
