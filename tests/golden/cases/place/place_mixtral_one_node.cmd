args: place --model mixtral --system dgx-h100 --phase decode --objective throughput --top 12
exit: 0
