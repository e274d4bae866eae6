// SPDX-License-Identifier: Apache-2.0
// The FlowBuf model as the ONOS topology overlay and the embedded host's page
// both render it: pure functions over the REST API's JSON
// ({"buffers": [...], "intents": [...], "upf": [...], "congestion": [...],
// "placement": [...]}) plus three table renderers.
(function (global) {
    'use strict';

    var FULL_PERCENT = 80;

    function fillPercent(buffer) {
        var capacity = buffer.spec && buffer.spec.capacityPackets;
        if (!capacity) {
            return 0;
        }
        return Math.min(100, Math.floor(buffer.occupancyPackets * 100 / capacity));
    }

    // {deviceId: {count, held, fullest, warn}} for each device's badge.
    function deviceBadges(model) {
        var badges = {};
        (model.buffers || []).forEach(function (b) {
            var d = badges[b.deviceId] || (badges[b.deviceId] = {count: 0, held: 0, fullest: 0});
            d.count += 1;
            d.held += b.occupancyPackets;
            d.fullest = Math.max(d.fullest, fillPercent(b));
            d.warn = d.fullest >= FULL_PERCENT;
        });
        return badges;
    }

    // Installed pauses whose buffer is holding: [{deviceId, port, bufferId, filter}].
    function pausedFlows(model) {
        var holding = {};
        (model.buffers || []).forEach(function (b) {
            if (b.state === 'BUFFERING') {
                holding[b.deviceId + '/' + b.id] = true;
            }
        });
        return (model.intents || []).filter(function (i) {
            return i.type === 'PAUSE' && i.state === 'INSTALLED'
                && holding[i.deviceId + '/' + i.bufferId];
        }).map(function (i) {
            return {deviceId: i.deviceId, port: i.inPort, bufferId: i.bufferId, filter: i.filter};
        });
    }

    // The UPF's line for a device from the upf/devices list (model.upf), or
    // '' when it has no session there.
    function upfSummary(model, deviceId) {
        var u = (model.upf || []).filter(function (x) { return x.deviceId === deviceId; })[0];
        if (!u || !u.sessions) {
            return '';
        }
        return 'UPF: ' + u.sessions + (u.sessions === 1 ? ' session, ' : ' sessions, ')
            + u.pausedDownlinks + ' paused';
    }

    function bufferRows(model) {
        return (model.buffers || []).map(function (b) {
            return {deviceId: b.deviceId, id: b.id, state: b.state, mode: b.mode,
                    vport: b.vport, held: b.occupancyPackets, fill: fillPercent(b),
                    owner: b.owner};
        });
    }

    // Renders the buffer table into a <tbody>; resume(row) is called by each
    // row's button (omitted when resume is not given).
    function renderBufferTable(tbody, model, resume) {
        var doc = tbody.ownerDocument;
        while (tbody.firstChild) {
            tbody.removeChild(tbody.firstChild);
        }
        bufferRows(model).forEach(function (row) {
            var tr = doc.createElement('tr');
            tr.className = 'flowbuf-state-' + row.state.toLowerCase();
            tr.setAttribute('data-buffer', row.id);
            [row.deviceId, row.id, row.state, row.vport + ' ' + row.mode, row.held,
             row.fill + '%', row.owner].forEach(function (text) {
                var td = doc.createElement('td');
                td.textContent = String(text);
                tr.appendChild(td);
            });
            var actions = doc.createElement('td');
            if (resume && row.state === 'BUFFERING') {
                var button = doc.createElement('button');
                button.textContent = 'Resume';
                button.className = 'flowbuf-resume';
                button.onclick = function () { resume(row); };
                actions.appendChild(button);
            }
            tr.appendChild(actions);
            tbody.appendChild(tr);
        });
    }

    // The link (of [{one: 'device:s1/2', other: 'device:s2/1'}]) a hop leaves
    // by; none for the last hop, which leaves towards the destination host.
    function linkAt(links, hop) {
        var end = hop.deviceId + '/' + hop.outPort;
        return links.filter(function (l) { return l.one === end || l.other === end; })[0];
    }

    // A latency-critical flow's paths as link keys ('one-other'):
    // {primary: [...], backup: [...]}; a switch-over swaps the REST's
    // primary and backup, and so these.
    function ccPathLinks(flow, links) {
        function keys(path) {
            return (path || []).map(function (hop) { return linkAt(links, hop); })
                .filter(Boolean).map(function (l) { return l.one + '-' + l.other; });
        }
        return {primary: keys(flow.primary), backup: keys(flow.backup)};
    }

    function ccLastDelays(flow) {
        var d = flow.lastDelays;
        return d ? 'queue ' + d.queueUs + ' \u00b5s, processing ' + d.procUs + ' \u00b5s at '
            + d.deviceId : '-';
    }

    function ccRows(model) {
        return (model.congestion || []).map(function (f) {
            return {id: f.id, hosts: f.srcHost + ' \u2192 ' + f.dstHost, mode: f.mode,
                    primary: (f.primaryDevices || []).join(' \u2192 '),
                    backup: (f.backupDevices || []).join(' \u2192 ') || 'none',
                    switchOvers: f.switchOverCount, lastDelays: ccLastDelays(f)};
        });
    }

    // Renders the latency-critical flows into a <tbody>; show(row) is called
    // by each row's button; the row of shownId is marked.
    function renderCongestionTable(tbody, model, shownId, show) {
        var doc = tbody.ownerDocument;
        while (tbody.firstChild) {
            tbody.removeChild(tbody.firstChild);
        }
        ccRows(model).forEach(function (row) {
            var tr = doc.createElement('tr');
            tr.className = row.id === shownId ? 'flowbuf-cc-shown' : '';
            tr.setAttribute('data-flow', row.id);
            [row.id, row.hosts, row.mode, row.primary, row.backup, row.switchOvers,
             row.lastDelays].forEach(function (text, i) {
                var td = doc.createElement('td');
                td.textContent = String(text);
                td.className = ['id', 'hosts', 'mode', 'primary', 'backup', 'switchovers',
                                'delays'][i];
                tr.appendChild(td);
            });
            var actions = doc.createElement('td');
            var button = doc.createElement('button');
            button.textContent = 'Show';
            button.className = 'flowbuf-cc-show';
            button.onclick = function () { show(row); };
            actions.appendChild(button);
            tr.appendChild(actions);
            tbody.appendChild(tr);
        });
    }

    // The hybrid UPF's placement (model.placement: the REST API's
    // upf/placement list), fast UEs first, the hottest first.
    function placementRows(model) {
        return (model.placement || []).slice().sort(function (a, b) {
            var fa = a.path === 'FAST' ? 0 : 1;
            var fb = b.path === 'FAST' ? 0 : 1;
            return fa - fb || b.rateBps - a.rateBps
                || (a.ueAddress < b.ueAddress ? -1 : a.ueAddress > b.ueAddress ? 1 : 0);
        }).map(function (p) {
            return {ue: p.ueAddress, path: p.path + (p.moving ? ' (moving)' : ''),
                    rate: rateText(p.rateBps), promotions: p.promotions,
                    demotions: p.demotions, lastMove: p.lastMoveUs + ' \u00b5s'};
        });
    }

    function rateText(bps) {
        if (bps >= 1e9) {
            return (bps / 1e9).toFixed(2) + ' Gbit/s';
        }
        if (bps >= 1e6) {
            return (bps / 1e6).toFixed(2) + ' Mbit/s';
        }
        if (bps >= 1e3) {
            return (bps / 1e3).toFixed(1) + ' kbit/s';
        }
        return bps + ' bit/s';
    }

    // Renders the placement into a <tbody>, one row per placed UE.
    function renderPlacementTable(tbody, model) {
        var doc = tbody.ownerDocument;
        while (tbody.firstChild) {
            tbody.removeChild(tbody.firstChild);
        }
        placementRows(model).forEach(function (row) {
            var tr = doc.createElement('tr');
            tr.className = 'flowbuf-path-' + row.path.split(' ')[0].toLowerCase();
            tr.setAttribute('data-ue', row.ue);
            [row.ue, row.path, row.rate, row.promotions, row.demotions,
             row.lastMove].forEach(function (text, i) {
                var td = doc.createElement('td');
                td.textContent = String(text);
                td.className = ['ue', 'path', 'rate', 'promotions', 'demotions', 'lastmove'][i];
                tr.appendChild(td);
            });
            tbody.appendChild(tr);
        });
    }

    global.FlowBufModel = {
        FULL_PERCENT: FULL_PERCENT,
        fillPercent: fillPercent,
        deviceBadges: deviceBadges,
        pausedFlows: pausedFlows,
        upfSummary: upfSummary,
        bufferRows: bufferRows,
        renderBufferTable: renderBufferTable,
        ccPathLinks: ccPathLinks,
        ccRows: ccRows,
        renderCongestionTable: renderCongestionTable,
        placementRows: placementRows,
        renderPlacementTable: renderPlacementTable
    };
}(typeof window !== 'undefined' ? window : this));
