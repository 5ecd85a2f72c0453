args: tp --model 70b --sweep size=8B:1GiB
exit: 2
