args: tp --model 70b --tokens 4096 --json --format csv
exit: 2
