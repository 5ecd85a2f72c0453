args: validate --format csv ../../data/measurements/collectives.csv
exit: 0
