args: validate --loads --format csv
exit: 0
