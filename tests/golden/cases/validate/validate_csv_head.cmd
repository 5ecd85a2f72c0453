args: validate --format csv ../data/collectives.csv
exit: 0
