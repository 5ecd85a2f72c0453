args: tp --model 70b --gpu l40s --gpus 4
exit: 0
