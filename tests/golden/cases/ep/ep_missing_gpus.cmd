args: ep --model deepseek-v3
exit: 2
