args: coldstart --model 70b --sweep gpus=1:8 --explain
exit: 2
