args: offload --model 70b --gpu h100 --batch 8
exit: 2
