#!/bin/bash
# The desktop of one VM: the script the local provider runs in its sandbox (server/vms/
# localProvider.ts), with x11vnc on the pod's port 5900 for the server's proxy.
set -u
export HOME=/home/vm XDG_CONFIG_HOME=/tmp/config XDG_CACHE_HOME=/tmp/cache
export DISPLAY=:1 LIBGL_ALWAYS_SOFTWARE=1 QT_X11_NO_MITSHM=1
Xvfb :1 -screen 0 1280x800x24 -nolisten tcp +extension GLX &
for i in $(seq 1 100); do [ -e /tmp/.X11-unix/X1 ] && break; sleep 0.1; done
openbox &
if [ -f /data/simulation.pvd ]; then paraview --data=/data/simulation.pvd & else paraview & fi
x11vnc -display :1 -rfbport 5900 -rfbauth /run/vm/passwd -forever -shared -noxdamage -quiet &
wait -n
kill $(jobs -p) 2>/dev/null
wait
