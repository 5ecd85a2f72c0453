args: coldstart --model 70b --budget soon --json
exit: 2
