args: coldstart --model 70b --budget nan
exit: 2
