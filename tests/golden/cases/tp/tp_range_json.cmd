args: tp --model 70b --tokens 4096 --wire roce --json
exit: 0
