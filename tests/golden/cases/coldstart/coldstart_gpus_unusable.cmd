args: coldstart --model 70b --gpus 81
exit: 2
