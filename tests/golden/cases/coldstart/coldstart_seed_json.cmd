args: coldstart --model 70b --json
exit: 0
