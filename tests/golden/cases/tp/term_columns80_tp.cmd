env: COLUMNS=80
args: tp --model 70b --tokens 4096
exit: 0
