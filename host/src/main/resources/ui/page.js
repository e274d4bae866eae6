// SPDX-License-Identifier: Apache-2.0
// The embedded host's page: the same model as the ONOS overlay (REST JSON,
// rendered with flowbufModel.js), refreshed twice a second, with pause and
// resume through the REST API, and the latency-critical flows with the
// shown one's primary and backup paths drawn on the links.
(function () {
    'use strict';

    var API = '/onos/flowbuf/';
    var SVG = 'http://www.w3.org/2000/svg';
    var topology = {switches: [], devices: [], hosts: [], links: []};
    var model = {buffers: [], intents: [], upf: [], congestion: [], placement: []};
    // The latency-critical flow whose paths are drawn (0: the first one).
    var shownFlow = 0;
    // The last refused pause or resume: it stays on screen across the
    // twice-a-second refreshes until the user's next action.
    var actionError = null;

    function call(method, path, body) {
        return fetch(API + path, {
            method: method,
            headers: {'Content-Type': 'application/json'},
            body: body === undefined ? undefined : JSON.stringify(body)
        }).then(function (resp) {
            return resp.text().then(function (text) {
                var json = text ? JSON.parse(text) : null;
                if (!resp.ok) {
                    throw new Error(json && json.message ? json.message : resp.statusText);
                }
                return json;
            });
        });
    }

    function status(text, isError) {
        var el = document.getElementById('status');
        el.textContent = text;
        el.className = isError ? 'error' : '';
    }

    function showLive() {
        if (actionError) {
            status(actionError, true);
        } else {
            status('live · ' + new Date().toLocaleTimeString());
        }
    }

    // Sends a user action; a refusal is kept on screen (see actionError).
    function act(method, path, body) {
        actionError = null;
        return call(method, path, body).then(refresh, function (e) {
            actionError = e.message;
            status(actionError, true);
        });
    }

    function el(name, attrs, parent) {
        var node = document.createElementNS(SVG, name);
        Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
        parent.appendChild(node);
        return node;
    }

    // The device of a link's end ('device:s1/2' -> 'device:s1').
    function deviceOf(end) {
        return end.slice(0, end.lastIndexOf('/'));
    }

    // Device centres: in a row without links; with links, in columns by hops
    // from the first device (a path runs left to right, parallel paths one
    // above the other).
    function layout(svg) {
        var at = {}, column = {}, rows = [];
        if (!topology.links.length) {
            topology.devices.forEach(function (device, d) {
                at[device.id] = {x: 280 + (d - (topology.devices.length - 1) / 2) * 200, y: 150};
            });
            return at;
        }
        var queue = topology.devices.length ? [topology.devices[0].id] : [];
        column[queue[0]] = 0;
        while (queue.length) {
            var id = queue.shift();
            topology.links.forEach(function (l) {
                [[l.one, l.other], [l.other, l.one]].forEach(function (ends) {
                    var from = deviceOf(ends[0]), to = deviceOf(ends[1]);
                    if (from === id && column[to] === undefined) {
                        column[to] = column[id] + 1;
                        queue.push(to);
                    }
                });
            });
        }
        topology.devices.forEach(function (device) {
            var c = column[device.id] === undefined ? 0 : column[device.id];
            rows[c] = (rows[c] || 0) + 1;
            at[device.id] = {x: 90 + c * 200, y: 150 + (rows[c] - 1) * 250};
        });
        svg.setAttribute('width', Math.max(560, 180 + (rows.length - 1) * 200));
        svg.setAttribute('height', Math.max(300, Math.max.apply(null, rows) * 250 + 50));
        return at;
    }

    // The flow whose paths are drawn: the one shown, else the first.
    function flowShown() {
        var flows = model.congestion || [];
        return flows.filter(function (f) { return f.id === shownFlow; })[0] || flows[0];
    }

    function drawLinks(svg, at) {
        var flow = flowShown();
        var paths = flow ? FlowBufModel.ccPathLinks(flow, topology.links)
            : {primary: [], backup: []};
        topology.links.forEach(function (l) {
            var key = l.one + '-' + l.other;
            var a = at[deviceOf(l.one)], b = at[deviceOf(l.other)];
            if (!a || !b) {
                return;
            }
            var cls = paths.primary.indexOf(key) >= 0 ? 'link flowbuf-cc-primary'
                : paths.backup.indexOf(key) >= 0 ? 'link flowbuf-cc-backup' : 'link';
            el('line', {x1: a.x, y1: a.y, x2: b.x, y2: b.y, 'class': cls, 'data-link': key}, svg);
        });
    }

    function drawTopology() {
        var svg = document.getElementById('topology');
        while (svg.firstChild) {
            svg.removeChild(svg.firstChild);
        }
        var badges = FlowBufModel.deviceBadges(model);
        var paused = FlowBufModel.pausedFlows(model);
        var at = layout(svg);
        drawLinks(svg, at);
        topology.devices.forEach(function (device) {
            var cx = at[device.id].x;
            var cy = at[device.id].y;
            var hosts = topology.hosts.filter(function (h) { return h.deviceId === device.id; });
            hosts.forEach(function (host, i) {
                var x = cx + (i - (hosts.length - 1) / 2) * 150;
                var y = 40;
                var isPaused = paused.some(function (p) {
                    return p.deviceId === device.id && p.port === host.port;
                });
                var g = el('g', {'class': 'host' + (isPaused ? ' paused' : ''),
                                 'data-host': host.name}, svg);
                el('line', {x1: x, y1: y + 15, x2: cx, y2: cy - 25}, g);
                el('rect', {x: x - 30, y: y - 15, width: 60, height: 30, rx: 4}, g);
                el('text', {x: x - 26, y: y + 4}, g).textContent =
                    host.name + (isPaused ? ' paused' : '');
                el('text', {x: (x + cx) / 2 + 4, y: (y + cy) / 2}, g).textContent = 'port ' + host.port;
            });
            var badge = badges[device.id] || {count: 0, held: 0, fullest: 0};
            var g = el('g', {'class': 'device' + (badge.warn ? ' warn' : ''),
                             'data-device': device.id}, svg);
            el('circle', {cx: cx, cy: cy, r: 25}, g);
            el('text', {x: cx - 30, y: cy + 45}, g).textContent = device.id;
            el('text', {x: cx - 60, y: cy + 62, 'class': 'badge'}, g).textContent =
                badge.count + ' buffers, ' + badge.held + ' held (' + badge.fullest + '%)';
            var upf = FlowBufModel.upfSummary(model, device.id);
            if (upf) {
                el('text', {x: cx - 60, y: cy + 115, 'class': 'upf'}, g).textContent = upf;
            }
            device.vports.forEach(function (v, i) {
                var vx = cx + (i - (device.vports.length - 1) / 2) * 90;
                el('rect', {x: vx - 35, y: cy + 75, width: 70, height: 20, fill: '#eee',
                            stroke: '#888'}, g);
                el('text', {x: vx - 32, y: cy + 89}, g).textContent =
                    v.id + (v.buffer ? ':' + v.buffer : '');
            });
        });
    }

    function drawIntents() {
        var tbody = document.querySelector('#intents tbody');
        tbody.innerHTML = '';
        model.intents.forEach(function (i) {
            var tr = document.createElement('tr');
            [i.id, i.type, i.deviceId, i.inPort || i.outPort, i.state, i.bufferId || '-',
             JSON.stringify(i.filter)].forEach(function (text) {
                var td = document.createElement('td');
                td.textContent = String(text);
                tr.appendChild(td);
            });
            tbody.appendChild(tr);
        });
    }

    function resume(row) {
        var pause = model.intents.filter(function (i) {
            return i.type === 'PAUSE' && i.bufferId === row.id && i.state === 'INSTALLED';
        })[0];
        var port = window.prompt('Resume ' + row.id + ' towards port:',
                                 pause ? String(defaultOutPort(pause)) : '');
        if (!port) {
            return;
        }
        act('POST', 'intents/resume', {deviceId: row.deviceId, outPort: parseInt(port, 10),
                                       filter: pause ? pause.filter : {}, bufferId: row.id});
    }

    // The port of the host the paused flow was addressed to, if known.
    function defaultOutPort(pause) {
        var dst = pause.filter.ipv4Dst && pause.filter.ipv4Dst.split('/')[0];
        var host = topology.hosts.filter(function (h) { return h.ips.indexOf(dst) >= 0; })[0];
        return host ? host.port : '';
    }

    // The REST API's devices (their vports show the buffers bound to them)
    // and the netcfg's other switches, which a path may cross, without vports.
    function withSwitches(devices) {
        var known = devices.map(function (d) { return d.id; });
        return devices.concat(topology.switches.filter(function (id) {
            return known.indexOf(id) < 0;
        }).map(function (id) { return {id: id, vports: []}; })).sort(function (a, b) {
            return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
        });
    }

    function show(row) {
        shownFlow = row.id;
        refresh();
    }

    function refresh() {
        return Promise.all([call('GET', 'buffers'), call('GET', 'intents'),
                            call('GET', 'devices'), call('GET', 'upf/devices'),
                            call('GET', 'congestion/flows'),
                            call('GET', 'upf/placement')]).then(function (r) {
            model = {buffers: r[0].buffers, intents: r[1].intents, upf: r[3].devices,
                     congestion: r[4].flows, placement: r[5].placements};
            topology.devices = withSwitches(r[2].devices);
            FlowBufModel.renderBufferTable(document.querySelector('#buffers tbody'), model, resume);
            var flow = flowShown();
            FlowBufModel.renderCongestionTable(document.querySelector('#congestion tbody'), model,
                                               flow ? flow.id : 0, show);
            FlowBufModel.renderPlacementTable(document.querySelector('#placement tbody'), model);
            drawIntents();
            drawTopology();
            showLive();
        }, function (e) { status(e.message, true); });
    }

    // Pauses are offered on the devices with buffers.
    function fillForm(flowbufDevices) {
        var devices = document.getElementById('pause-device');
        var hosts = document.getElementById('pause-host');
        flowbufDevices.forEach(function (d) {
            devices.appendChild(new Option(d.id, d.id));
        });
        topology.hosts.forEach(function (h) {
            hosts.appendChild(new Option(h.name + ' (' + h.ips[0] + ', port ' + h.port + ')',
                                         h.name));
        });
    }

    document.getElementById('pause-form').addEventListener('submit', function (event) {
        event.preventDefault();
        var host = topology.hosts.filter(function (h) {
            return h.name === document.getElementById('pause-host').value;
        })[0];
        var filter = {ipv4Src: host.ips[0] + '/32'};
        var dst = document.getElementById('pause-dst').value.trim();
        var proto = document.getElementById('pause-proto').value.trim();
        if (dst) {
            filter.ipv4Dst = dst.indexOf('/') < 0 ? dst + '/32' : dst;
        }
        if (proto) {
            filter.ipProto = parseInt(proto, 10);
        }
        act('POST', 'intents/pause', {deviceId: document.getElementById('pause-device').value,
                                      inPort: host.port, filter: filter});
    });

    fetch('topology.json').then(function (r) { return r.json(); }).then(function (t) {
        return call('GET', 'devices').then(function (d) {
            topology = {switches: t.switches || [], hosts: t.hosts, links: t.links || []};
            topology.devices = withSwitches(d.devices);
            fillForm(d.devices);
            refresh();
            setInterval(refresh, 500);
        });
    }).catch(function (e) { status(e.message, true); });
}());
