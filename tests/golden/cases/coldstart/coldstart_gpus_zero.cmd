args: coldstart --model 70b --gpus 0
exit: 2
