args: place --model 70b --gpu h100 --gpus 8 --phase decode --tuning tuned --top 2
exit: 0
