#!/usr/bin/env python3
"""Measure a dataset against the hand-read key of seeds 002 and 003 (notes/seeds.md)."""
import json, sys
out = sys.argv[1] if len(sys.argv) > 1 else "output"
rules = json.load(open(f"{out}/rules.json"))
sheets = json.load(open(f"{out}/datasheets.json"))
KEY_9E_RULES = """Setup|Basics|The Battle Round|Command Phase|Psychic Phase|Shooting Phase|Fight Phase|Objectives|Transports|Aircraft
Move Units|Reinforcements|Charges|Heroic Interventions|Morale Tests|Unit Coherency Checks|Hit Roll|Wound Roll|Allocate Attack|Saving Throw|Inflict Damage
Normal Move|Advance|Remain Stationary|Fall Back|Terrain|Flying|Smite|Perils of the Warp|Look Out, Sir|Assault|Heavy|Rapid Fire|Grenade|Pistol|Blast Weapons|Overwatch|Pile In|Close Combat Attacks|Consolidate|Combat Attrition|Invulnerable Saves|Mortal Wounds|Ignoring Wounds
Unit coherency|Engagement range|Measuring
Reanimation Protocols|And They Shall Know No Fear|Bolter Discipline|Shock Assault|Combat Doctrines""".replace("\n", "|").split("|")
KEY_CARDS = ["Skorpekh Lord", "Plasmancer", "Royal Warden", "Overlord", "Skorpekh Destroyers", "Cryptothralls", "Necron Warriors", "Canoptek Reanimator", "Canoptek Scarab Swarms", "Eradicator Squad", "Bladeguard Veteran Squad", "Assault Intercessor Squad", "Outrider Squad", "Bladeguard Ancient", "Primaris Chaplain", "Primaris Captain", "Judiciar", "Primaris Lieutenant"]
# HH: rules whose own words (or a surviving heading) name them, in general form
KEY_HH = ["Adamantium Will (X)", "Barrage", "Battlesmith (X)", "Blast", "Large Blast", "Massive Blast", "Apocalyptic Blast", 'Apocalyptic Mega-blast (5"/7"/10")', "Bulky (X)", "Counter-attack (X)", "Deep Strike", "Exoshock (X)", "Fear (X)", "Fearless", "Feel No Pain", "Firing Protocols (X)", "Fleet (X)", "Furious Charge (X)", "Gets Hot", "Hatred (X)", "Heavy", "Ignores Cover", "It Will Not Die (X)", "Lance", "Legiones Astartes (X)", "Master-crafted", "Ordnance", "Outflank", "Pinning", "Poisoned (X)", "Precision Shots (X)", "Precision Strikes (X)", "Preferred Enemy (X)", "Rad-phage", "Rage (X)", "Rampage (X)", "Rapid Fire", "Relentless", "Rending", "Shred", "Shrouded", "Sniper", "Specialist Weapon", "Strafing Run (X)", "Swarm", "Template"]
ninth = {r["name"] for r in rules if r["edition"] == "9e" and r["name"]}
hh = [r for r in rules if r["edition"] == "hh2"]
hh_names = {r["name"] for r in hh if r["name"]}
cards = {d["name"] for d in sheets if d["edition"] == "9e"}
print(f"9e unit cards as datasheets: {len(cards & set(KEY_CARDS))}/{len(KEY_CARDS)}")
print(f"9e named rules with a record: {len(ninth & set(KEY_9E_RULES))}/{len(KEY_9E_RULES)}; missing {sorted(set(KEY_9E_RULES) - ninth)}")
print(f"9e rule names not in the key (invented or furniture): {sorted(ninth - set(KEY_9E_RULES))}")
print(f"HH rules named: {len(hh_names & set(KEY_HH))}/{len(KEY_HH)}; missing {sorted(set(KEY_HH) - hh_names)}")
print(f"HH names not in the key (invented): {sorted(hh_names - set(KEY_HH))}")
print(f"HH records: {len(hh)} ({sum(1 for r in hh if not r['name'])} unnamed)")
