args: validate --serving serving/bad/string_ttft.json --model 70b --system aws-p4d
exit: 2
