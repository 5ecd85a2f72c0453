args: place --model 70b --gpu h100 --gpus 8 --phase decode --reserve 1.5
exit: 2
