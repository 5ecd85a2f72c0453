args: coldstart --model 70b --budget 2.5 --json
exit: 0
